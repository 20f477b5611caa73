import { afterAll, describe, expect, it } from 'bun:test';
import { removeTempDirs } from '../support/temp-dir';
import { accessContract, envelopeContract } from './access';
import { demoLimitContract } from './demo-limit';
import { jsonLogsContract } from './logs';
import { reportsContract } from './reports';
import { requestFormsContract } from './request-forms';
import { checkout, TARGETS } from './targets';
import { validatingProxy } from './openapi-proxy';
import { webPageContract } from './web-page';
import { contractWorld } from './world';

afterAll(removeTempDirs);

// One contract, every form of the server: the checkout as `npm start` runs it and the executable
// `npm run build` ships (the container image runs a subset: test/container). One server per form.
for (const target of TARGETS) {
  describe(`the HTTP contract, served by ${target.name}`, () => {
    const world = contractWorld(target);
    envelopeContract(world);
    accessContract(world);
    demoLimitContract(world);
    reportsContract(world);
    webPageContract(world);
    requestFormsContract(world);
    jsonLogsContract(world); // last: it stops the server
  });
}

// The same suites through a proxy that checks every answer against the server's OpenAPI document,
// every object schema closed: a field, header or status the document does not declare fails here.
// (Suites that need the raw socket, the client's own address or the server's log stay direct.)
describe('the HTTP contract, checked against /swagger/json on the way back', () => {
  const proxy = validatingProxy(contractWorld(checkout));
  envelopeContract(proxy.world);
  accessContract(proxy.world);
  reportsContract(proxy.world);
  it('every answer of the suites above agrees with the document', () => {
    expect(proxy.drift).toEqual([]);
  });
});
