/* SPDX-License-Identifier: Apache-2.0 */
/* Network events of the schema; see ../event_schema.h for the format. */
#ifndef KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H
#define KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H

#define KESTREL_NETWORK_EVENTS(EVENT)

#endif /* KESTREL_SHARED_SCHEMA_NETWORK_EVENTS_H */
