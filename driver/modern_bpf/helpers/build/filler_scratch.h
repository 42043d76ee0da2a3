/* SPDX-License-Identifier: Apache-2.0 */
/* The scratch area a custom filler continues, checked against its event. */
#ifndef KESTREL_BPF_FILLER_SCRATCH_H
#define KESTREL_BPF_FILLER_SCRATCH_H

#include "record_builder.h"
#include "../../shared/filler_programs.h"

/* The record the dispatcher began, or NULL when it began another event's:
 * a filler must never append to a record it does not own. */
static __always_inline struct scratch_area *scratch_for(__u16 type)
{
	struct scratch_area *s = scratch_area();

	return s && s->type == type ? s : NULL;
}

#define FILLER_SERVES_EVENT(name) || scratch_->type == KESTREL_EVT_##name

/* The record the dispatcher began when it is one of `events` (an EVENTS
 * list of shared/filler_programs.h), else NULL: the scratch_for of a
 * program that serves several events. */
#define scratch_for_any(events)                                                                    \
	({                                                                                         \
		struct scratch_area *scratch_ = scratch_area();                                    \
		scratch_ && (0 events(FILLER_SERVES_EVENT)) ? scratch_ : NULL;                     \
	})

#endif /* KESTREL_BPF_FILLER_SCRATCH_H */
