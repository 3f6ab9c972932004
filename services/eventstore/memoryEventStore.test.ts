import { describeEventStoreContract } from './eventStore.contract.js';
import { createMemoryEventStore } from './memoryEventStore.js';

describeEventStoreContract('memory', async () => createMemoryEventStore());
