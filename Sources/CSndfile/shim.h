#ifndef VOICEMSG_CSNDFILE_SHIM_H
#define VOICEMSG_CSNDFILE_SHIM_H
#include <sndfile.h>

/* sf_command takes a void pointer whose meaning depends on the command;
   these wrappers give Swift typed entry points for the commands we use. */
static inline int vm_sf_get_format_major(SF_INFO *info, SF_FORMAT_INFO *out) {
    out->format = info->format & SF_FORMAT_TYPEMASK;
    return sf_command(NULL, SFC_GET_FORMAT_INFO, out, sizeof(*out));
}

static inline int vm_sf_get_format_subtype(SF_INFO *info, SF_FORMAT_INFO *out) {
    out->format = info->format & SF_FORMAT_SUBMASK;
    return sf_command(NULL, SFC_GET_FORMAT_INFO, out, sizeof(*out));
}

/* The text log of what libsndfile found while parsing the header (SFC_GET_LOG_INFO). */
static inline int vm_sf_get_log_info(SNDFILE *file, char *buffer, int size) {
    return sf_command(file, SFC_GET_LOG_INFO, buffer, size);
}

/* Float samples written to an integer format are clipped, not wrapped (SFC_SET_CLIPPING). */
static inline int vm_sf_set_clipping(SNDFILE *file, int on) {
    return sf_command(file, SFC_SET_CLIPPING, NULL, on ? SF_TRUE : SF_FALSE);
}
#endif
