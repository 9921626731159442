#ifndef VOICEMSG_CFFMPEG_SHIM_H
#define VOICEMSG_CFFMPEG_SHIM_H
/* FFmpeg's demuxers and decoders, for the isolated decoder process (voicemsg-decode) only:
   no other target may import this module, so that voicemsg and the server never load
   libavcodec. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/log.h>
#include <errno.h>

/* FFmpeg's error codes are macros that Swift cannot import (AVERROR_EOF is built by FFERRTAG,
   AVERROR(e) negates a POSIX code); these give them names. */
static inline int vm_averror_eof(void) { return AVERROR_EOF; }
static inline int vm_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vm_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int vm_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int vm_averror_patchwelcome(void) { return AVERROR_PATCHWELCOME; }
static inline int vm_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t vm_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int vm_av_time_base(void) { return AV_TIME_BASE; }

/* av_opt_set is not variadic, but its flags are macros; these name the two uses. */
static inline int vm_av_dict_set(AVDictionary **dictionary, const char *key, const char *value) {
    return av_dict_set(dictionary, key, value, 0);
}
#endif
