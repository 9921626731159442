#ifndef VOICEMSG_CSOXR_SHIM_H
#define VOICEMSG_CSOXR_SHIM_H
#include <soxr.h>
#endif
