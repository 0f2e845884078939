#include <ccnx/error.h>

const char *ccnx_strerror(int code)
{
    switch (code) {
    case CCNX_OK:
        return "success";
    case CCNX_E_NOMEM:
        return "out of memory";
    case CCNX_E_INVAL:
        return "invalid argument";
    case CCNX_E_TRUNCATED:
        return "input ends inside an element";
    case CCNX_E_BADTT:
        return "unexpected ccnb item type";
    case CCNX_E_NUMVAL:
        return "ccnb header number too large";
    case CCNX_E_TOODEEP:
        return "elements nested too deeply";
    case CCNX_E_TOOBIG:
        return "element too large";
    case CCNX_E_STRUCTURE:
        return "elements not in the expected order";
    case CCNX_E_TRAILING:
        return "extra bytes after the element";
    case CCNX_E_VALUE:
        return "value out of range";
    case CCNX_E_URI:
        return "malformed ccnx: URI";
    case CCNX_E_NOTFOUND:
        return "not found";
    case CCNX_E_CRYPTO:
        return "cryptographic library failure";
    case CCNX_E_BADSIG:
        return "signature does not verify";
    case CCNX_E_NOKEY:
        return "no key available";
    case CCNX_E_IO:
        return "input/output error";
    case CCNX_E_UNSUPPORTED:
        return "not supported";
    case CCNX_E_XML:
        return "malformed XML";
    case CCNX_E_KEYSTORE:
        return "keystore unreadable or wrong password";
    case CCNX_E_KEYNOTFOUND:
        return "the key the object names could not be fetched";
    case CCNX_E_REFUSED:
        return "refused";
    }
    return "unknown error";
}
