/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers the verifier checks once per program instead of once per call
 * site and per path leading to it: global BPF functions. A global
 * function is verified on its own, knowing only its arguments' types, so
 * it must take scalars, pointers to fixed-size memory (checked for NULL)
 * or, tagged KESTREL_ARG_UNTRUSTED, kernel pointers it reads through
 * faulting loads only. __weak lets several objects of one skeleton define
 * the same helper; `bpftool gen object` keeps one.
 */
#ifndef KESTREL_BPF_GLOBAL_FUNC_H
#define KESTREL_BPF_GLOBAL_FUNC_H

#include <bpf/bpf_helpers.h>

#define KESTREL_GLOBAL_FUNC __weak __noinline

/* A kernel pointer argument of any BTF type, NULL included (the
 * verifier's "arg:untrusted" tag; this machine's 6.18 has it). */
#define KESTREL_ARG_UNTRUSTED __attribute__((btf_decl_tag("arg:untrusted")))

/* The program's context (the verifier's "arg:ctx" tag): a global function
 * taking it can read the tracepoint's arguments and tail-call. */
#define KESTREL_ARG_CTX __attribute__((btf_decl_tag("arg:ctx")))

#endif /* KESTREL_BPF_GLOBAL_FUNC_H */
