/**
 * Codes the `state` filter accepts: USPS codes of the 50 states, DC, the territories (PR, VI, GU,
 * AS, MP, UM), the freely associated states (FM, MH, PW) and the military post codes (AA, AE, AP),
 * which is every FAC_STATE value in EPA's ECHO exporter. A typo such as `TZ` is a 422, not an
 * empty result that looks like "no facilities here".
 */
export const US_STATE_CODES: ReadonlySet<string> = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA ' +
    'RI SC SD TN TX UT VT VA WA WV WI WY DC PR VI GU AS MP UM FM MH PW AA AE AP'
  ).split(' '),
);
