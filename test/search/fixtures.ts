import { facility } from '../helpers';

/** A small fictitious world for search: prefixes, shared words, filters and ties. */
export const SEARCH_ROWS = [
  facility({ registry_id: '990000000101', fac_name: 'ACME PLATING INC', fac_street: '2100 W LUSHER AVE', fac_city: 'ELKHART', fac_state: 'IN', fac_zip: '46517', fac_naics: '332813', overall_score: 62, lat: 41.67, lng: -85.99 }),
  facility({ registry_id: '990000000102', fac_name: 'ACME PLASTICS CORP', fac_street: '55 INDUSTRIAL PKWY', fac_city: 'GOSHEN', fac_state: 'IN', fac_zip: '46526', fac_naics: '326199', overall_score: 88, lat: 41.58, lng: -85.83 }),
  facility({ registry_id: '990000000103', fac_name: 'ACME CHEMICAL WORKS', fac_street: '9 RIVER RD', fac_city: 'ELKHART', fac_state: 'IN', fac_zip: '46514', fac_naics: '325110', overall_score: 35, active_enforcement: true, lat: 41.7, lng: -85.97 }),
  facility({ registry_id: '990000000104', fac_name: 'ELKHART TRUCK WASH', fac_street: '100 MAIN ST', fac_city: 'SPRINGFIELD', fac_state: 'IL', fac_zip: '62701', fac_naics: '811192', overall_score: 91, lat: 39.78, lng: -89.65 }),
  facility({ registry_id: '990000000105', fac_name: 'GULF COAST REFINING', fac_street: '1 REFINERY RD', fac_city: 'HOUSTON', fac_state: 'TX', fac_zip: '77002', fac_naics: '324110', overall_score: 35, active_enforcement: true, lat: 29.76, lng: -95.37 }),
  facility({ registry_id: '990000000106', fac_name: 'SMITH, JONES & "PARTNERS"\nPLATING', fac_street: '7 OAK ST', fac_city: 'AKRON', fac_state: 'OH', fac_zip: '44308', fac_naics: '332813', overall_score: 50, lat: 41.08, lng: -81.52 }),
  facility({ registry_id: '990000000107', fac_name: 'NEAR AND FAR OR NOT LLC', fac_street: '8 ELM ST', fac_city: 'DAYTON', fac_state: 'OH', fac_zip: '45402', fac_naics: '424690', overall_score: 70, lat: 39.76, lng: -84.19 }),
];

/** Twenty-five facilities sharing the word RIVER, with repeated scores and identical texts, so pages cross ties. */
export const RIVER_ROWS = Array.from({ length: 25 }, (_, i) =>
  facility({
    registry_id: `9900000002${String(i).padStart(2, '0')}`,
    fac_name: i % 3 === 0 ? 'RIVER PLANT' : `RIVER PLANT ${i}`,
    fac_street: `${i + 1} RIVER RD`,
    fac_city: 'RIVERSIDE',
    fac_state: 'CA',
    fac_zip: '92501',
    overall_score: 40 + (i % 4) * 10,
  }),
);
