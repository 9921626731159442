#ifndef VOICEMSG_COPUS_SHIM_H
#define VOICEMSG_COPUS_SHIM_H
#include <opus.h>

/* opus_encoder_ctl and opus_decoder_ctl are variadic, which Swift cannot call.
   Each request we use gets a typed static inline wrapper. */
static inline int vm_opus_set_bitrate(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_BITRATE(v)); }
static inline int vm_opus_set_vbr(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_VBR(v)); }
static inline int vm_opus_set_vbr_constraint(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_VBR_CONSTRAINT(v)); }
static inline int vm_opus_set_complexity(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_COMPLEXITY(v)); }
static inline int vm_opus_set_signal(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_SIGNAL(v)); }
static inline int vm_opus_set_expert_frame_duration(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_EXPERT_FRAME_DURATION(v)); }
static inline int vm_opus_set_lsb_depth(OpusEncoder *st, opus_int32 v) { return opus_encoder_ctl(st, OPUS_SET_LSB_DEPTH(v)); }
static inline int vm_opus_get_lookahead(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_LOOKAHEAD(v)); }
/* Read back by the tests, which ask libopus what the encoder was set to. */
static inline int vm_opus_get_bitrate(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_BITRATE(v)); }
static inline int vm_opus_get_vbr(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_VBR(v)); }
static inline int vm_opus_get_complexity(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_COMPLEXITY(v)); }
static inline int vm_opus_get_signal(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_SIGNAL(v)); }
static inline int vm_opus_get_application(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_APPLICATION(v)); }
static inline int vm_opus_get_expert_frame_duration(OpusEncoder *st, opus_int32 *v) { return opus_encoder_ctl(st, OPUS_GET_EXPERT_FRAME_DURATION(v)); }
static inline int vm_opus_decoder_set_gain(OpusDecoder *st, opus_int32 v) { return opus_decoder_ctl(st, OPUS_SET_GAIN(v)); }

/* Constants that are macros of a form Swift does not import. */
static inline int vm_opus_signal_voice(void) { return OPUS_SIGNAL_VOICE; }
static inline int vm_opus_signal_music(void) { return OPUS_SIGNAL_MUSIC; }
static inline int vm_opus_application_audio(void) { return OPUS_APPLICATION_AUDIO; }
static inline int vm_opus_framesize_arg(int ms10) {
    switch (ms10) {
    case 25: return OPUS_FRAMESIZE_2_5_MS;
    case 50: return OPUS_FRAMESIZE_5_MS;
    case 100: return OPUS_FRAMESIZE_10_MS;
    case 200: return OPUS_FRAMESIZE_20_MS;
    case 400: return OPUS_FRAMESIZE_40_MS;
    case 600: return OPUS_FRAMESIZE_60_MS;
    default: return OPUS_FRAMESIZE_ARG;
    }
}
#endif
