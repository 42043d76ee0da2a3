/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Custom filler programs that serve several events: one program per
 * distinct filler body, so the verifier checks that body once rather than
 * once per event. The probe defines each as `fill_<program>` and checks a
 * record's type against its events; libpman puts the program at every one
 * of its events' tail-call slots. An event of the schema not listed here
 * has a program of its own, named `fill_<EVENT>`.
 *
 *   KESTREL_SHARED_FILLERS(FILLER): FILLER(program, EVENTS) where
 *   EVENTS(EVENT) lists EVENT(NAME) for each event the program serves.
 */
#ifndef KESTREL_SHARED_FILLER_PROGRAMS_H
#define KESTREL_SHARED_FILLER_PROGRAMS_H

#define KESTREL_FILLER_EXEC_EVENTS(EVENT) EVENT(EXECVE) EVENT(EXECVEAT)

#define KESTREL_FILLER_CLONE_EVENTS(EVENT) EVENT(CLONE) EVENT(CLONE3) EVENT(FORK) EVENT(VFORK)

#define KESTREL_SHARED_FILLERS(FILLER)                                                             \
	FILLER(exec, KESTREL_FILLER_EXEC_EVENTS)                                                   \
	FILLER(clone, KESTREL_FILLER_CLONE_EVENTS)

#endif /* KESTREL_SHARED_FILLER_PROGRAMS_H */
