import { createMemorySeatTokens } from './memorySeatTokens.js';
import { describeSeatTokensContract } from './seatTokens.contract.js';

describeSeatTokensContract('memory', { open: async () => createMemorySeatTokens(), persists: false });
