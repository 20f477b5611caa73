import { SqliteStateStore } from '../../src/state/sqlite-store';
import { storeContract } from './store-contract';

storeContract('SQLite', async () => new SqliteStateStore(':memory:'));
