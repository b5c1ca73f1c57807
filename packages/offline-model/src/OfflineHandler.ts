import type { ProviderRequest } from '@multihop/core';

/** Answers one prompt role from the call's variables; returns an object its schema accepts. */
export type OfflineHandler = (vars: Record<string, unknown>, request: ProviderRequest) => unknown;
