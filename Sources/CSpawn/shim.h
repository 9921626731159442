#ifndef VOICEMSG_CSPAWN_SHIM_H
#define VOICEMSG_CSPAWN_SHIM_H
/* posix_spawn's close-from file action (glibc 2.34 and later), which Swift's Glibc module does
   not import: the decoder child must start with its three standard descriptors and nothing of
   its parent's. */
#include <spawn.h>
#include <features.h>

#if !__GLIBC_PREREQ(2, 34)
#error "voicemsg needs glibc 2.34 or later for posix_spawn_file_actions_addclosefrom_np"
#endif

/* Closes, in the child, every descriptor from `lowest` up. */
static inline int vm_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
#endif
