#ifndef VOICEMSG_CSECCOMP_SHIM_H
#define VOICEMSG_CSECCOMP_SHIM_H
/* libseccomp, for the decoder child's system-call allow-list, and prctl's parent-death signal:
   the Linux walls of voicemsg-decode (DecoderSandbox). */
#include <seccomp.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdint.h>

/* The actions are macros, one of them built from others. */
static inline uint32_t vm_seccomp_kill_process(void) { return SCMP_ACT_KILL_PROCESS; }

/* seccomp_rule_add is variadic; these are the three rule shapes the allow-list uses. */
static inline int vm_seccomp_allow(scmp_filter_ctx filter, int call) {
    return seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 0);
}

/* Allowed when argument `index` equals `value` (a descriptor number, a process id). */
static inline int vm_seccomp_allow_when_equal(scmp_filter_ctx filter, int call, unsigned int index, uint64_t value) {
    return seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 1, SCMP_CMP(index, SCMP_CMP_EQ, value));
}

/* Allowed when argument `index` has none of the bits of `mask` (PROT_EXEC in a protection). */
static inline int vm_seccomp_allow_when_clear(scmp_filter_ctx filter, int call, unsigned int index, uint64_t mask) {
    return seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 1, SCMP_CMP(index, SCMP_CMP_MASKED_EQ, mask, 0));
}

/* prctl is variadic; every use here takes one argument (PR_SET_PDEATHSIG, PR_GET_PDEATHSIG). */
static inline int vm_prctl(int option, unsigned long argument) {
    return prctl(option, argument, 0UL, 0UL, 0UL);
}
#endif
