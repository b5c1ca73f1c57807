import { retrieverConformance } from '../test/retrieverConformance';

retrieverConformance('bm25');
