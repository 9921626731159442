#!/usr/bin/env python3
"""Prints the delay, in samples at the output rate, of the Fraunhofer FDK AAC encoder that
Debian's aac-enc runs (libfdk-aac2), for the settings aac-enc is given: the priming a real
muxer writes into an M4A's edit list (fdkaac, Android's MPEG4Writer). aac-enc itself writes raw
ADTS, which has no field for it. The tests' HE-AAC rows use it; nothing else does.

Usage: scripts/fdk-aac-delay.py AOT SAMPLE_RATE CHANNELS BITRATE
"""
import ctypes
import sys


class EncoderInfo(ctypes.Structure):
    # AACENC_InfoStruct in fdk-aac 2.x's aacenc_lib.h.
    _fields_ = [("maxOutBufBytes", ctypes.c_uint), ("maxAncBytes", ctypes.c_uint),
                ("inBufFillLevel", ctypes.c_uint), ("inputChannels", ctypes.c_uint),
                ("frameLength", ctypes.c_uint), ("nDelay", ctypes.c_uint), ("nDelayCore", ctypes.c_uint),
                ("confBuf", ctypes.c_ubyte * 64), ("confSize", ctypes.c_uint)]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    aot, rate, channels, bitrate = (int(value) for value in sys.argv[1:])
    try:
        library = ctypes.CDLL("libfdk-aac.so.2")
    except OSError:
        sys.exit("fdk-aac-delay: libfdk-aac.so.2 is missing: install Debian's aac-enc (non-free; `make setup`)")
    handle = ctypes.c_void_p()
    if library.aacEncOpen(ctypes.byref(handle), 0, channels) != 0:
        sys.exit("fdk-aac-delay: aacEncOpen failed")
    # AACENC_AOT, AACENC_SAMPLERATE, AACENC_CHANNELMODE (1 or 2 = the channel count here),
    # AACENC_BITRATE, AACENC_TRANSMUX (2 = ADTS): what aac-enc sets.
    for parameter, value in ((0x0100, aot), (0x0103, rate), (0x0106, channels), (0x0101, bitrate), (0x0300, 2)):
        if library.aacEncoder_SetParam(handle, parameter, value) != 0:
            sys.exit(f"fdk-aac-delay: the encoder refuses parameter {parameter:#x} = {value}")
    info = EncoderInfo()
    if library.aacEncEncode(handle, None, None, None, None) != 0 or library.aacEncInfo(handle, ctypes.byref(info)) != 0:
        sys.exit("fdk-aac-delay: the encoder does not initialise with these settings")
    print(info.nDelay)
    library.aacEncClose(ctypes.byref(handle))


main()
