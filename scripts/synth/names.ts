import type { Rng } from './rng';

/**
 * Invented names only. Names are coined from syllables chosen to read as made-up words
 * (ZORVEX, QUALMIRA...), so no generated row carries a real company's name next to invented violations.
 */
const ONSET = ['Z', 'Q', 'X', 'V', 'K', 'BR', 'DR', 'GL', 'TR', 'PL', 'SK', 'FL', 'M', 'N', 'L', 'R', 'T', 'H', 'J', 'Y'];
const VOWEL = ['A', 'E', 'I', 'O', 'U', 'Y', 'AE', 'OU'];
const CODA = ['X', 'RV', 'NT', 'LK', 'ZZ', 'QU', 'RN', 'M', 'N', 'TH', 'V', 'SK', 'RD', 'L'];
const ENDING = ['EX', 'ON', 'IRA', 'ANT', 'ORA', 'ULON', 'IQ', 'ETH', 'AVO', 'YND', 'OLT', 'ARIS'];

function coined(rng: Rng): string {
  let w = rng.pick(ONSET) + rng.pick(VOWEL) + rng.pick(CODA);
  if (rng.chance(0.5)) w += rng.pick(VOWEL) + rng.pick(ONSET).slice(-1);
  return w + rng.pick(ENDING);
}

/** NAICS codes the sample uses, with SIC, what the facility is called, and how common it is. */
export const INDUSTRIES: readonly { naics: string; sic: string; kind: readonly string[]; weight: number; programs: string }[] = [
  { naics: '221310', sic: '4941', kind: ['WATER SUPPLY', 'WATER TREATMENT PLANT', 'PUBLIC WATER SYSTEM'], weight: 10, programs: 'SDWIS' },
  { naics: '221320', sic: '4952', kind: ['WASTEWATER TREATMENT PLANT', 'WWTP', 'SEWER DISTRICT'], weight: 6, programs: 'NPDES' },
  { naics: '447110', sic: '5541', kind: ['FUEL STOP', 'GAS STATION', 'TRAVEL CENTER'], weight: 12, programs: 'RCRA' },
  { naics: '811111', sic: '7538', kind: ['AUTO REPAIR', 'AUTO SERVICE', 'GARAGE'], weight: 12, programs: 'RCRA' },
  { naics: '236220', sic: '1542', kind: ['CONSTRUCTION SITE', 'BUILDERS', 'DEVELOPMENT'], weight: 9, programs: 'NPDES' },
  { naics: '484110', sic: '4212', kind: ['TRUCKING', 'FREIGHT TERMINAL', 'LOGISTICS YARD'], weight: 5, programs: 'RCRA' },
  { naics: '622110', sic: '8062', kind: ['MEDICAL CENTER', 'HOSPITAL', 'CLINIC'], weight: 3, programs: 'RCRA' },
  { naics: '611310', sic: '8221', kind: ['COLLEGE', 'UNIVERSITY CAMPUS', 'INSTITUTE'], weight: 2, programs: 'RCRA AIR' },
  { naics: '112112', sic: '0211', kind: ['FEEDLOT', 'CATTLE CO', 'RANCH'], weight: 3, programs: 'NPDES' },
  { naics: '211120', sic: '1311', kind: ['OIL AND GAS WELL PAD', 'PRODUCTION FACILITY', 'COMPRESSOR STATION'], weight: 5, programs: 'AIR' },
  { naics: '212312', sic: '1422', kind: ['QUARRY', 'AGGREGATES', 'STONE PIT'], weight: 3, programs: 'NPDES AIR' },
  { naics: '311612', sic: '2013', kind: ['MEAT PROCESSING', 'PACKING PLANT', 'FOODS'], weight: 2, programs: 'NPDES' },
  { naics: '322121', sic: '2621', kind: ['PAPER MILL', 'PULP AND PAPER'], weight: 1, programs: 'AIR NPDES RCRA' },
  { naics: '324110', sic: '2911', kind: ['REFINERY', 'REFINING CO'], weight: 0.3, programs: 'AIR NPDES RCRA' },
  { naics: '325110', sic: '2869', kind: ['PETROCHEMICAL PLANT', 'CHEMICALS'], weight: 0.8, programs: 'AIR NPDES RCRA' },
  { naics: '325211', sic: '2821', kind: ['PLASTICS', 'POLYMERS PLANT', 'RESINS'], weight: 1, programs: 'AIR RCRA' },
  { naics: '327320', sic: '3273', kind: ['READY MIX', 'CONCRETE PLANT'], weight: 3, programs: 'AIR NPDES' },
  { naics: '331110', sic: '3312', kind: ['STEEL WORKS', 'STEEL MILL'], weight: 0.5, programs: 'AIR NPDES RCRA' },
  { naics: '332813', sic: '3471', kind: ['PLATING', 'METAL FINISHING', 'ANODIZING'], weight: 2, programs: 'RCRA NPDES' },
  { naics: '336111', sic: '3711', kind: ['ASSEMBLY PLANT', 'VEHICLE PLANT'], weight: 0.3, programs: 'AIR RCRA NPDES' },
  { naics: '423930', sic: '5093', kind: ['SCRAP METAL', 'RECYCLING YARD', 'SALVAGE'], weight: 3, programs: 'NPDES RCRA' },
  { naics: '424710', sic: '5171', kind: ['BULK TERMINAL', 'FUEL TERMINAL', 'TANK FARM'], weight: 1.5, programs: 'AIR NPDES RCRA' },
  { naics: '562211', sic: '4953', kind: ['WASTE SERVICES', 'DISPOSAL FACILITY', 'LANDFILL'], weight: 1.5, programs: 'RCRA AIR NPDES' },
  { naics: '221112', sic: '4911', kind: ['POWER STATION', 'GENERATING STATION', 'ENERGY CENTER'], weight: 1, programs: 'AIR NPDES' },
  { naics: '812320', sic: '7216', kind: ['DRY CLEANERS', 'CLEANERS'], weight: 5, programs: 'RCRA' },
];

const SUFFIX = ['INC', 'LLC', 'CO', 'CORP', 'LP', '', '', ''];
const STREET_TYPE = ['ST', 'AVE', 'RD', 'BLVD', 'DR', 'LN', 'HWY', 'PKWY', 'WAY', 'CT'];
const COMMON_STREET = ['INDUSTRIAL', 'COMMERCE', 'MAIN', 'MILL', 'RIVER', 'RAILROAD', 'PLANT', 'CANAL', 'HARBOR', 'REFINERY'];

export function facilityName(rng: Rng, kind: string): string {
  const suffix = rng.pick(SUFFIX);
  const base = rng.chance(0.3) ? `${coined(rng)} ${coined(rng)}` : coined(rng);
  return [base, kind, suffix].filter(Boolean).join(' ');
}

export function streetAddress(rng: Rng): string {
  const number = rng.chance(0.1) ? rng.int(1, 99) : rng.int(100, 29999);
  const name = rng.chance(0.35) ? rng.pick(COMMON_STREET) : coined(rng);
  const dir = rng.chance(0.15) ? `${rng.pick(['N', 'S', 'E', 'W'])} ` : '';
  return `${number} ${dir}${name} ${rng.pick(STREET_TYPE)}`;
}
