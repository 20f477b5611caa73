import { afterAll, describe } from 'bun:test';
import { removeTempDirs } from '../support/temp-dir';
import { accessContract, envelopeContract } from './access';
import { demoLimitContract } from './demo-limit';
import { jsonLogsContract } from './logs';
import { reportsContract } from './reports';
import { requestFormsContract } from './request-forms';
import { TARGETS } from './targets';
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
