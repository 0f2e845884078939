#!/bin/bash
# The layering rules of docs/architecture.md ("Dependency rules"), checked
# on every #include of the sources, so they cannot drift:
#   - core/ includes only itself, libc/POSIX and OpenSSL;
#   - everything else reaches the core only through its public headers
#     (<ccnx/...> that core/include/ccnx holds, or the generated dtag
#     values), never core/src;
#   - inside ccnd: table/ and loop/ include only themselves, face/ itself
#     and loop/, fw/ itself and table/ (a strategy only fw/strategy.h),
#     mgmt/ itself and table/ (status*.c/.h also face/ and fw/, whose counters
#     the status page shows); ccnd's top files wire every layer;
#   - table/ names no socket header;
#   - an app includes its own files and apps/common, a
#     plugin its own and plugins/common;
#   - inside the core, the layers of core/src are ordered base, encoding,
#     packet, security, client, fetch, publish, sync: a file includes its own
#     layer's headers and those of the layers below (a public header counts
#     in the layer of the source that defines it), never one above;
#   - inside the core, only base/env.c reads the environment.
# Prints every broken rule with its file and line.
set -u
SRC=${CCNX_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1
bad=0
broken() {
    echo "$1:$2: $3"
    bad=1
}

# The folders a quoted include of file $1 is looked up in, in order.
search_dirs() {
    local f=$1
    SEARCH=("${f%/*}")
    case $f in
    core/src/*) SEARCH+=(core/src) ;;
    ccnd/*) SEARCH+=(ccnd) ;;
    apps/*) SEARCH+=(apps/common) ;;
    plugins/gstreamer/*) SEARCH+=(plugins/gstreamer/src plugins/common) ;;
    plugins/*) SEARCH+=(plugins/common) ;;
    esac
}

# The folders (path prefixes) file $1 may include from.
allowed() {
    local f=$1 top
    case $f in
    core/*) ALLOWED=(core/) ;;
    ccnd/table/*) ALLOWED=(ccnd/table/) ;;
    ccnd/loop/*) ALLOWED=(ccnd/loop/) ;;
    ccnd/face/*) ALLOWED=(ccnd/face/ ccnd/loop/) ;;
    ccnd/fw/strategy_*) ALLOWED=(ccnd/fw/strategy.h) ;;
    ccnd/fw/*) ALLOWED=(ccnd/fw/ ccnd/table/) ;;
    ccnd/mgmt/status*.[ch]) ALLOWED=(ccnd/mgmt/ ccnd/table/ ccnd/face/ ccnd/fw/) ;;
    ccnd/mgmt/*) ALLOWED=(ccnd/mgmt/ ccnd/table/) ;;
    ccnd/*) ALLOWED=(ccnd/) ;;
    apps/tools/*) ALLOWED=(apps/tools/ apps/common/) ;;
    apps/*)
        top=${f#apps/}
        ALLOWED=("apps/${top%%/*}/" apps/common/)
        ;;
    plugins/*)
        top=${f#plugins/}
        ALLOWED=("plugins/${top%%/*}/" plugins/common/)
        ;;
    esac
}

check_quoted() { # file line header
    local d found= a ok=0
    search_dirs "$1"
    for d in "${SEARCH[@]}"; do
        if [ -e "$d/$3" ]; then
            found=$d/$3
            break
        fi
    done
    [ -n "$found" ] || { broken "$1" "$2" "\"$3\" not found"; return; }
    case $found in *..*) found=$(realpath -m --relative-to=. "$found") ;; esac
    allowed "$1"
    for a in "${ALLOWED[@]}"; do
        case $found in "$a"*) ok=1 ;; esac
    done
    [ $ok = 1 ] || broken "$1" "$2" "\"$3\" ($found) is outside what ${1%/*} may include"
    case $1:$found in
    core/src/*:core/src/*)
        local l=${found#core/src/}
        check_core_order "$1" "$2" "${l%%/*}" "\"$3\""
        ;;
    esac
}

CORE_LAYERS=(base encoding packet security client fetch publish sync)
# The rank of core layer $1 in CORE_LAYERS, in RANK (-1: not a layer).
layer_rank() {
    local i
    RANK=-1
    for i in "${!CORE_LAYERS[@]}"; do
        [ "${CORE_LAYERS[$i]}" = "$1" ] && RANK=$i
    done
}
# The core layer of public header ccnx/$1.h: the folder of the source that
# defines it (the same name), or the one named here.
header_layer() {
    local c
    case $1 in
    api | error) HLAYER=base ;;
    dtag_values) HLAYER=encoding ;;
    content_sign) HLAYER=security ;;
    *)
        c=$(cd core/src && ls -d -- */"$1".c 2>/dev/null | head -n 1)
        HLAYER=${c%%/*}
        ;;
    esac
}
# File $1 (under core/src/LAYER/) includes something of layer $3.
check_core_order() { # file line layer what
    local own=${1#core/src/}
    own=${own%%/*}
    layer_rank "$own"
    local mine=$RANK
    layer_rank "$3"
    [ "$RANK" -ge 0 ] || { broken "$1" "$2" "$4 belongs to no layer of the core"; return; }
    [ "$RANK" -le "$mine" ] || broken "$1" "$2" "$4 is in the $3 layer, above $own"
}

check_angle() { # file line header
    case $1:$3 in
    core/src/*:ccnx/*)
        local h=${3#ccnx/}
        header_layer "${h%.h}"
        check_core_order "$1" "$2" "$HLAYER" "<$3>"
        ;;
    esac
    case $3 in
    ccnx/dtag_values.h) ;; # generated from core/dtag.csv
    ccnx/*)
        [ -e "core/include/$3" ] || broken "$1" "$2" "<$3> is not a public header of the core"
        ;;
    gst/* | glib* | curses.h | ncurses* | lmdb.h | expat.h | epan/* | wireshark/* | ws_*)
        case $1 in core/*) broken "$1" "$2" "the core includes <$3>" ;; esac
        ;;
    sys/socket.h | netinet/* | arpa/* | sys/un.h | net/if.h)
        case $1 in ccnd/table/*) broken "$1" "$2" "table/ includes the socket header <$3>" ;; esac
        ;;
    esac
}

mapfile -t files < <(find core ccnd apps plugins -name '*.[ch]' -not -path '*/tests/*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no sources under $SRC"; exit 1; }
re='^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"])([^>"]*)[>"]'
while IFS= read -r rec; do
    f=${rec%%:*}
    rest=${rec#*:}
    line=${rest%%:*}
    text=${rest#*:}
    [[ $text =~ $re ]] || continue
    if [ "${BASH_REMATCH[1]}" = '"' ]; then
        check_quoted "$f" "$line" "${BASH_REMATCH[2]}"
    else
        check_angle "$f" "$line" "${BASH_REMATCH[2]}"
    fi
done < <(grep -Hn '^[[:space:]]*#[[:space:]]*include' "${files[@]}")
while IFS=: read -r f line _; do
    [ "$f" = core/src/base/env.c ] || broken "$f" "$line" "the core reads the environment outside env.c"
done < <(grep -n 'getenv *(' core/src/*/*.c core/include/ccnx/*.h)

if [ $bad != 0 ]; then
    echo "FAIL: the layering rules of docs/architecture.md are broken (above)"
    exit 1
fi
echo "ok: ${#files[@]} files follow the layering rules"
