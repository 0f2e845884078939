/* What leaves libccnx. The library is compiled with hidden visibility;
 * every public header wraps its declarations in CCNX_API_BEGIN and
 * CCNX_API_END, so exactly what these headers declare is exported and
 * the helpers the sources share (the internal headers under core/src) are not.
 * tests/tools/test_exports.sh checks the exported list against the
 * headers. A module that links the core statically and must export
 * nothing of it (the Wireshark plugin) defines CCNX_API_HIDDEN. */
#ifndef CCNX_API_H
#define CCNX_API_H

#if defined(__GNUC__) && !defined(CCNX_API_HIDDEN)
#define CCNX_API_BEGIN _Pragma("GCC visibility push(default)")
#define CCNX_API_END   _Pragma("GCC visibility pop")
#else
#define CCNX_API_BEGIN
#define CCNX_API_END
#endif

#endif
