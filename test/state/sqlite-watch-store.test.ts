import { SqliteStateStore } from '../../src/state/sqlite-store';
import { watchStoreContract } from './watch-store-contract';

watchStoreContract('SQLite', async () => new SqliteStateStore(':memory:'));
