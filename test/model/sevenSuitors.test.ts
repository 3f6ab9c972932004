/** Model-based tests of the sevenSuitors machine: generated paths, targeted paths and coverage (see suite.ts). */
import { defineModelSuite } from './suite.js';

defineModelSuite('sevenSuitors');
