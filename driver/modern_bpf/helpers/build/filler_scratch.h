/* SPDX-License-Identifier: Apache-2.0 */
/* The scratch area a custom filler continues, checked against its event. */
#ifndef KESTREL_BPF_FILLER_SCRATCH_H
#define KESTREL_BPF_FILLER_SCRATCH_H

#include "record_builder.h"

/* The record the dispatcher began, or NULL when it began another event's:
 * a filler must never append to a record it does not own. */
static __always_inline struct scratch_area *scratch_for(__u16 type)
{
	struct scratch_area *s = scratch_area();

	return s && s->type == type ? s : NULL;
}

#endif /* KESTREL_BPF_FILLER_SCRATCH_H */
