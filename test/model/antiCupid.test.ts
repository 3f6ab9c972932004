/** Model-based tests of the antiCupid machine: generated paths, targeted paths and coverage (see suite.ts). */
import { defineModelSuite } from './suite.js';

defineModelSuite('antiCupid');
