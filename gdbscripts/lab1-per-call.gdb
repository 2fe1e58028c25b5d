# Lab 1 walkthrough: per_call_chain() storage, seen from GDB.
# Run by `make check` against a -S guest running gdbscripts/targets/lab1-per-call.c,
# with an ext4 disk on /dev/vda; its transcript must match lab1-per-call.expect.
# Live: `make qemu-gdb LAB=1` (the handout says how to attach a disk), `make gdb LAB=1`.

# Hardware breakpoints: QEMU starts paused before the kernel is even decompressed.
# The conditions keep us on the lab program ("prog"), not on jbd2's own kthread.
# First ext4_create(), the open(O_CREAT): mounting the disk starts handles of its own
# (orphan cleanup, the superblock), and a stop in one of those would follow the wrong call.
hbreak ext4_create if $_streq($lx_current().comm, "prog")
continue
delete
# Then the outermost handle of that create (journal_info still empty): a nested start
# only takes another reference on the handle already parked there.
hbreak jbd2__journal_start if $_streq($lx_current().comm, "prog") && $lx_current().per_call.journal_info == 0
continue
# Disarm before finish: a handle started before this one returns would stop us again,
# with journal_info still empty, and everything below would read through NULL.
delete

checkpoint 1. ext4 is starting a journal handle for our open(O_CREAT)
bt 12
echo \n--- the task's per-call storage before the handle exists:\n
p $lx_current().per_call
printf "per_call_chain(journal_info) before = %p\n", $lx_current().per_call.journal_info

echo \n--- finish: jbd2__journal_start() returns the handle it parked in journal_info\n
finish
printf "per_call_chain(journal_info) after  = %p\n", $lx_current().per_call.journal_info
set $h = (handle_t *)$lx_current().per_call.journal_info
printf "handle: h_ref=%d h_transaction=%p, transaction tid=%d\n", $h->h_ref, $h->h_transaction, $h->h_transaction->t_tid
printf "the old spelling aliases it: current->journal_info = %p\n", $lx_current().journal_info

checkpoint 2. a magic link: /proc/self/fd/N jumps without a nameidata argument
hbreak nd_jump_link if $_streq($lx_current().comm, "prog")
continue
bt 10
set $nd = $lx_current().per_call.nameidata
printf "per_call_chain(nameidata) = %p\n", $nd
printf "the walk in progress: depth=%d total_link_count=%d last=\"%s\"\n", $nd->depth, $nd->total_link_count, $nd->last.name
if (unsigned long)$nd - (unsigned long)$lx_current().stack < sizeof(init_stack)
  echo nameidata lies on this task's kernel stack: yes\n
else
  echo nameidata lies on this task's kernel stack: no\n
end
delete
checkpoint-end
# let the program finish (in make check the guest then ends, and with it this connection)
continue
