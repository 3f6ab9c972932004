/** Model-based tests of the traitorOfLove machine: generated paths, targeted paths and coverage (see suite.ts). */
import { defineModelSuite } from './suite.js';

defineModelSuite('traitorOfLove');
