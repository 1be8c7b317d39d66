#!/usr/bin/env bash
# The harness's wrappers/sw.sh: hands every argument to solweb's bin/sw unchanged.
# SOLWEB_ROOT names the solweb checkout; by default this file sits in <solweb>/adapters/wrappers.
root="${SOLWEB_ROOT:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd -P)}"
exec "$root/bin/sw" "$@"
