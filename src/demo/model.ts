import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { RedactedComponents } from '../facilities/model';

export const MAX_ADDRESS_LENGTH = 200;

export const DemoQuery = t.Object({
  address: t.String({
    minLength: 1,
    maxLength: MAX_ADDRESS_LENGTH,
    description: 'A US street address: house number, street, and the city and state or the ZIP code. At most 200 characters.',
    examples: ['27244 W Hurdora Blvd, Houston, TX 77257'],
  }),
});

/** The demo preview (docs/demo.md): identity, overall score and enforcement flag; never an ID, street, coordinates or components. */
export const DemoPreview = t.Object(
  {
    fac_name: t.String({ examples: ['PLOMULON REFINING CO'] }),
    fac_city: t.String({ examples: ['HOUSTON'] }),
    fac_state: t.String({ examples: ['TX'] }),
    overall_score: t.Integer({ minimum: 0, maximum: 100 }),
    active_enforcement: t.Boolean(),
    score_components: RedactedComponents,
  },
  { additionalProperties: false },
);
export type DemoPreview = Static<typeof DemoPreview>;

export const DemoResponse = Envelope(DemoPreview);

export const DemoExample = t.Object({
  address: t.String({ description: 'The facility\'s own address, as the demo reads it', examples: ['27244 W Hurdora Blvd, Houston, TX 77257'] }),
  registry_id: t.String({ description: 'Its EPA Registry ID (a lookup by ID needs an API key; the Free plan has 10 a month)', examples: ['990004433640'] }),
  fac_name: t.String({ examples: ['PLOMULON REFINING CO'] }),
});
export const DemoExamplesResponse = Envelope(t.Object({ examples: t.Array(DemoExample) }));
