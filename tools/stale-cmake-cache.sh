#!/usr/bin/env bash
# bash tools/stale-cmake-cache.sh DIR: removes the CMake build folder DIR when its CMakeCache.txt was
# written for another folder (a clone that was moved or copied), so that the next configure starts
# afresh instead of failing ("The current CMakeCache.txt directory ... is different than the directory
# ... where CMakeCache.txt was created"). Its objects would all recompile anyway: every compile line
# names the old paths. A cache of this folder, or no cache, is left as it is.
set -euo pipefail
dir=$1
[ -f "$dir/CMakeCache.txt" ] || exit 0
cached=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$dir/CMakeCache.txt")
# -ef: the same file, as CMake compares them (a path through a symbolic link is no move)
if ! [ "$cached/CMakeCache.txt" -ef "$dir/CMakeCache.txt" ]; then
  echo "$dir was configured in $cached (a moved or copied clone): configuring it afresh"
  rm -rf "$dir"
fi
