#!/usr/bin/env bash
# make lab LAB=n: prepare (once) and build lab n's working tree for a student.
#   build/labN/src  a git worktree on branch labN, starting at lab n's start tree;
#                   the commit where the lab starts is tagged labN-start
#   build/labN/obj  its build folder
#   build/labN/compile_commands.json  how each file was compiled, for your editor's
#                   clangd (it looks in the parent folders of a source file), written by
#                   the kernel's own scripts/clang-tools/gen_compile_commands.py
# An existing tree is never reset: it holds the student's work. Remove it to start over.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib.sh"

lab=$1
dir="$BUILD/lab$lab"
if [ ! -e "$dir/src/.git" ]; then
	"$top/vm/kernel/lab-tree.sh" "$lab" "$dir/src" "lab$lab" start
	git -C "$dir/src" tag -f "lab$lab-start" >/dev/null
	say "your tree: build/lab$lab/src (git diff lab$lab-start shows your work)"
fi
"$top/vm/kernel/build-kernel.sh" "$dir/src" "$dir/obj"
python3 "$dir/src/scripts/clang-tools/gen_compile_commands.py" -d "$dir/obj" -o "$dir/compile_commands.json"
say "build/lab$lab/compile_commands.json: $(grep -c '"file"' "$dir/compile_commands.json") files, for clangd"
