# Lab 5 walkthrough: a stack from the cache is handed over clean.
# Run by `make check` against a -S guest running gdbscripts/targets/lab5-stack-clear.c
# (twelve blocking asys reads, one after another); the transcript must match
# lab5-stack-clear.expect.
# Live: `make qemu-gdb LAB=5`, `make gdb LAB=5`, then `source gdbscripts/lab5-stack-clear.gdb`
# and run a program called "prog" in the guest that makes blocking asys calls.
#
# A cached stack still holds the frames of the call that used it last, and the next
# fibril on the CPU may belong to another process. fibril_alloc_stack() must hand it
# over as a new one comes from the page allocator (THREADINFO_GFP has __GFP_ZERO): all
# zero but the STACK_END_MAGIC word at its far end.

set language c

checkpoint 1. fibril_alloc_stack() returns a stack an earlier call of "prog" used
hbreak fibril_alloc_stack if $_streq($lx_current().comm, "prog")
python
seen = []
stack = None
for attempt in range(12):
    gdb.execute("continue", to_string=True)
    # With two CPUs another call can enter fibril_alloc_stack() before this one
    # returns: finish then stops at that entry (breakpoint 1 again), with no value
    # returned. Finish that call instead: every address counted is one a call got.
    for tries in range(4):
        gdb.execute("finish", to_string=True)
        if gdb.selected_frame().name() != "fibril_alloc_stack":
            break
    else:
        raise gdb.GdbError("finish never returned from fibril_alloc_stack()")
    got = int(gdb.parse_and_eval("$")) & 0xffffffff
    if got in seen:
        stack = got
        break
    seen.append(got)
if stack is None:
    print("no stack came back from the cache in 12 allocations: %s" % [hex(s) for s in seen])
else:
    print("fibril_alloc_stack() returned %#x, a stack call %d of 12 used before: reused" % (stack, seen.index(stack) + 1))
end
delete

checkpoint 2. what the stack holds when the new fibril gets it
python
if stack is not None:
    THREAD_SIZE = int(gdb.convenience_variable("THREAD_SIZE"))
    mem = bytes(gdb.selected_inferior().read_memory(stack, THREAD_SIZE))
    magic = int.from_bytes(mem[0:4], "little")
    words = [int.from_bytes(mem[k:k + 4], "little") for k in range(4, THREAD_SIZE, 4)]
    dirty = [k for k, w in enumerate(words) if w]
    print("stack[0] = %#x (STACK_END_MAGIC is %#x)" % (magic, int(gdb.convenience_variable("STACK_END_MAGIC"))))
    print("nonzero words above stack[0]: %d of %d" % (len(dirty), len(words)))
    if dirty:
        k = dirty[-1]
        print("  the highest, %#x at %#x: the last call's frames are still there" % (words[k], stack + 4 + 4 * k))
end
checkpoint-end
