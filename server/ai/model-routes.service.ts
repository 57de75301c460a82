import type { Db } from '../db/knex.js';
import type { AiRoute } from '../../contract/ai.js';
import { notFound, validationFailed } from '../http/errors.js';
import { maskSecret } from '../system/config.service.js';
import { chatNeedsOpenAi, chatProviderIssue, LOCAL_PROVIDERS, localUrlIssue, urlAllowed, urlIssue, urlNeeded, type RouteCreateInput, type RouteListFilter, type RouteUpdateInput } from './model-routes.schema.js';
import { deleteRouteRow, findRouteRow, insertRoute, listRouteRows, toAiRoute, updateRouteRow, type ModelRouteRow } from './model-routes.repository.js';

export const DEFAULT_ROUTE_PRIORITY = 100;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A route on this machine keeps data local; used as the is_local default when a create omits it. */
export const isLoopbackUrl = (url: string): boolean => {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127\./.test(host);
};

export async function listRoutes(db: Db, filter: RouteListFilter = {}): Promise<AiRoute[]> {
  return (await listRouteRows(db, filter)).map(toAiRoute);
}

async function findRoute(db: Db, id: number): Promise<ModelRouteRow> {
  const row = await findRouteRow(db, id);
  if (!row) throw notFound('Model route');
  return row;
}

export async function getRoute(db: Db, id: number): Promise<AiRoute> {
  return toAiRoute(await findRoute(db, id));
}

export async function createRoute(db: Db, input: RouteCreateInput): Promise<AiRoute> {
  const baseUrl = input.base_url ?? '';
  const id = await insertRoute(db, {
    ...input,
    base_url: baseUrl,
    api_key: input.api_key ?? '',
    priority: input.priority ?? DEFAULT_ROUTE_PRIORITY,
    enabled: input.enabled ?? true,
    is_local: input.is_local ?? (LOCAL_PROVIDERS.includes(input.provider) || isLoopbackUrl(baseUrl)),
    for_branches: input.for_branches ?? false,
    connect_timeout_ms: input.connect_timeout_ms ?? null,
    idle_timeout_ms: input.idle_timeout_ms ?? null,
  });
  return getRoute(db, id);
}

/** Omitted fields are kept; an api_key sent back exactly as it was shown (masked) keeps the stored key. */
export async function updateRoute(db: Db, id: number, input: RouteUpdateInput): Promise<AiRoute> {
  const current = await findRoute(db, id);
  const changes = { ...input };
  if (changes.api_key !== undefined && changes.api_key !== '' && changes.api_key === maskSecret(current.api_key)) delete changes.api_key;
  if (!chatNeedsOpenAi({ kind: changes.kind ?? current.kind, provider: changes.provider ?? current.provider })) {
    throw validationFailed(`Invalid provider: ${chatProviderIssue.message}`, [{ path: 'provider', message: chatProviderIssue.message }]);
  }
  const provider = changes.provider ?? current.provider;
  if (!urlNeeded({ provider, base_url: changes.base_url ?? current.base_url })) {
    throw validationFailed(`Invalid base_url: ${urlIssue.message}`, [{ path: 'base_url', message: urlIssue.message }]);
  }
  if (!urlAllowed({ provider, base_url: changes.base_url })) {
    throw validationFailed(`Invalid base_url: ${localUrlIssue.message}`, [{ path: 'base_url', message: localUrlIssue.message }]);
  }
  // A route turned into a local one keeps no URL.
  if (LOCAL_PROVIDERS.includes(provider)) changes.base_url = '';
  await updateRouteRow(db, id, changes);
  return getRoute(db, id);
}

export async function deleteRoute(db: Db, id: number): Promise<{ id: number; deleted: true }> {
  await findRoute(db, id);
  await deleteRouteRow(db, id);
  return { id, deleted: true };
}
