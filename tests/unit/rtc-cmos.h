/* CMOS register access through the RTC's two ports, for the RTC unit tests */
#ifndef TESTS_UNIT_RTC_CMOS_H
#define TESTS_UNIT_RTC_CMOS_H

#include "hw/rtc/mc146818rtc.h"

static inline uint8_t cmos_read(RTCState *s, uint8_t reg)
{
    rtc_ioport_write(s, 0, reg);
    return rtc_ioport_read(s, 1);
}

static inline void cmos_write(RTCState *s, uint8_t reg, uint8_t v)
{
    rtc_ioport_write(s, 0, reg);
    rtc_ioport_write(s, 1, v);
}

#endif
