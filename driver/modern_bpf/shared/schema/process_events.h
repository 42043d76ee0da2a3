/* SPDX-License-Identifier: Apache-2.0 */
/* Process events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H
#define KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H

#define KESTREL_PROCESS_EVENTS(EVENT)

#endif /* KESTREL_SHARED_SCHEMA_PROCESS_EVENTS_H */
