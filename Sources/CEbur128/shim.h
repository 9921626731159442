#ifndef VOICEMSG_CEBUR128_SHIM_H
#define VOICEMSG_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
