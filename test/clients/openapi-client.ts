/**
 * A small client typed only by `openapi-typescript`'s output for our served document (generated into
 * ./.generated/ by test/clients/typecheck.test.ts, which then runs tsc on this file). The type-level
 * lines below fail to compile if the document types integers as strings or error codes loosely.
 */
import type { components, paths } from './.generated/openapi';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
export type FacilityBody = Json<paths['/api/v1/facility/{registry_id}']['get']['responses'][200]>;
export type AreaBody = Json<paths['/api/v1/area']['get']['responses'][200]>;
export type PortfolioRequest = NonNullable<paths['/api/v1/portfolio']['post']['requestBody']>['content']['application/json'];
export type PortfolioBody = Json<paths['/api/v1/portfolio']['post']['responses'][200]>;
export type NotFoundBody = components['schemas']['Error404'];
export type AreaQuery = NonNullable<paths['/api/v1/area']['get']['parameters']['query']>;

// Compile-time checks on the generated types.
type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const integerScore: Is<FacilityBody['data']['overall_score'], number> = true;
export const integerTime: Is<FacilityBody['meta']['response_time_ms'], number> = true;
export const notFoundCode: Is<NotFoundBody['error']['code'], 'NOT_FOUND'> = true;
export const jsonOnlyBody: Is<keyof NonNullable<paths['/api/v1/portfolio']['post']['requestBody']>['content'], 'application/json'> = true;

export class FacilityScoreClient {
  constructor(private readonly base: string, private readonly apiKey: string) {}

  private async get<T>(path: string): Promise<T> {
    const res = await fetch(`${this.base}${path}`, { headers: { 'X-API-Key': this.apiKey } });
    if (!res.ok) throw new Error(`${res.status}: ${((await res.json()) as NotFoundBody).error.message}`);
    return (await res.json()) as T;
  }

  facility(registryId: string): Promise<FacilityBody> {
    return this.get<FacilityBody>(`/api/v1/facility/${encodeURIComponent(registryId)}`);
  }

  area(q: AreaQuery): Promise<AreaBody> {
    const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    return this.get<AreaBody>(`/api/v1/area?${params}`);
  }

  async portfolio(body: PortfolioRequest): Promise<PortfolioBody> {
    const res = await fetch(`${this.base}/api/v1/portfolio`, { method: 'POST', headers: { 'X-API-Key': this.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as PortfolioBody;
  }
}
