import type { Config } from './config';
import type { PeerAddress } from './demo/client-ip';
import type { Geocoder } from './demo/geocoder';
import type { SpatialHandle } from './area/spatial-handle';
import type { FacilityIndex } from './index/facility-index';
import type { Lifecycle } from './ops/lifecycle';
import type { ServiceMetrics } from './ops/service-metrics';
import type { StateStore } from './state/store';
import type { Log } from './log';


/** Everything the app needs from outside, passed in by main.ts or a test. */
export type AppDeps = {
  config: Config;
  index: FacilityIndex;
  /** The area search's spatial index, ready now or later (src/area/spatial-handle.ts); made by `serve`, never by a request. */
  spatial: SpatialHandle;
  store: StateStore;
  /** Epoch ms; tests pass a fixed clock. */
  clock: () => number;
  log: Log;
  /** Ops (docs/operations.md): process-wide metrics shared across index reloads; default: one per app. */
  metrics?: ServiceMetrics;
  /** Ops: `draining` is set on SIGTERM so /readyz answers 503; default: never draining. */
  lifecycle?: Lifecycle;
  /** Demo: socket peer of a request; default `server.requestIP` (tests of `app.handle`, which has no socket, inject one). */
  peerAddress?: PeerAddress;
  /** Demo: external geocoder; default: built from `config.geocoderUrl` (none when null). */
  geocoder?: Geocoder;
};
