import { retrieverConformance } from '../test/retrieverConformance';

retrieverConformance('hybrid');
