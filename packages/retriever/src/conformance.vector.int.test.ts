import { retrieverConformance } from '../test/retrieverConformance';

retrieverConformance('vector');
