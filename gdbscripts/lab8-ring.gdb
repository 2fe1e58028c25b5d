# Lab 8 walkthrough: a completion written into the thread's ring, and a stack kept unwiped.
# Run by `make check` against a -S guest running gdbscripts/targets/lab8-ring.c (cachemiss
# mode, a ring of 8, two blocking asys reads of a pipe, each collected with
# asys_ring_wait()); the transcript must match lab8-ring.expect.
# Live: `make qemu-gdb LAB=8`, `make gdb LAB=8`, then `source gdbscripts/lab8-ring.gdb`
# and run a program called "prog" in the guest (or edit the comm below).

set language c
hbreak asys_ring_post if $_streq($lx_current().comm, "prog")
continue

checkpoint 1. the read ended: its own chain, not the waiting thread, posts the completion
bt 5
set $map = $lx_current().asys_ring
printf "map %p: entries %u, the kernel's tail %u; the ring (vmap) %p: head %u, tail %u\n", $map, $map->entries, $map->tail, $map->ring, $map->ring->head, $map->ring->tail
printf "posting return_code %ld, cookie %lu, on fibril %p; the main chain %p\n", comp->return_code, comp->cookie, $lx_current().fibril, $lx_current().fibril_main
if $lx_current().fibril != $lx_current().fibril_main
  echo the writer is the call's chain, not the main chain: yes\n
end
set $slot = $map->tail & ($map->entries - 1)
set $ended_on = (unsigned long)$lx_current().stack
delete

checkpoint 2. after asys_ring_post(): the entry is whole, and tail moved past it
finish
printf "asys_ring_post returned %d; cqes[%u] = {return_code %ld, cookie %lu}; tail %u, head %u\n", (int)$, $slot, $map->ring->cqes[$slot].return_code, $map->ring->cqes[$slot].cookie, $map->ring->tail, $map->ring->head
if $map->ring->tail == $map->tail
  echo the thread's tail is the kernel's: yes\n
end

checkpoint 3. the second read: its spare is the stack the first read ended on, not cleared
hbreak fibril_alloc_spare_stack if $_streq($lx_current().comm, "prog")
continue
finish
printf "fibril_alloc_spare_stack returned 0x%08lx; the first read ended on 0x%08lx\n", (unsigned long)$, $ended_on
if (unsigned long)$ == $ended_on
  echo the same stack, kept for this task: yes\n
end
python
THREAD_SIZE = int(gdb.convenience_variable("THREAD_SIZE"))
stack = int(gdb.parse_and_eval("(unsigned long)$")) & 0xffffffff
mem = bytes(gdb.selected_inferior().read_memory(stack, THREAD_SIZE))
words = [int.from_bytes(mem[k:k + 4], "little") for k in range(8, THREAD_SIZE, 4)]
print("words not zero on it: %d of %d: the first read's frames, unwiped" % (sum(1 for w in words if w), len(words)))
end
delete
checkpoint-end
