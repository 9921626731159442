#ifndef VOICEMSG_CEXPAT_SHIM_H
#define VOICEMSG_CEXPAT_SHIM_H
/* expat.h declares the billion-laughs limits only when XML_DTD is defined, which is a setting
   of expat's own build (expat_config.h), not of its users. Debian, Homebrew and Apple build
   expat with DTD support, so the functions are there; declaring them is all this does. */
#ifndef XML_DTD
#define XML_DTD 1
#endif
#include <expat.h>

#if XML_MAJOR_VERSION < 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION < 4)
#error "voicemsg needs expat 2.4 or later, for its protection against entity expansion"
#endif
#endif
