#include <libical/ical.h>

/// `icalerrno` is a macro over icalerrno_return(); Swift cannot import it.
static inline icalerrorenum cical_errno(void) { return icalerrno; }
static inline void cical_clear_errno(void) { icalerrno = ICAL_NO_ERROR; }
