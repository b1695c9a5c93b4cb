/** The demo catalogue: invented artists and titles, with audio synthesised at seed time. */

export const demoGenres = [
  'Electronic',
  'Hip-Hop',
  'Jazz',
  'Rock',
  'Pop',
  'Ambient',
  'Lo-Fi',
  'Classical',
  'R&B',
  'Folk',
] as const;

export const demoAccounts = {
  admin: {
    name: 'Ada Admin',
    email: 'admin@backbeat.local',
    password: 'backbeat-admin',
    role: 'admin' as const,
  },
  artist: {
    name: 'Nova Reyes',
    email: 'artist@backbeat.local',
    password: 'backbeat-artist',
    role: 'artist' as const,
    preferredGenres: ['Electronic', 'Rock'],
  },
  listener: {
    name: 'Lee Listener',
    email: 'listener@backbeat.local',
    password: 'backbeat-listener',
    role: 'user' as const,
    preferredGenres: ['Electronic', 'Lo-Fi', 'Jazz'],
  },
};

/**
 * Listeners who bought music and subscribed in the demo's sales history (demo/demo-sales.ts). They have no
 * password (nobody signs in as them); the three accounts above start with no purchases, as a newcomer does.
 */
export const demoFans = [
  'Maya Chen',
  'Jonas Weber',
  'Amara Okoye',
  'Lucas Silva',
  'Priya Nair',
  'Tom Becker',
  'Sofia Rossi',
  'Kenji Tanaka',
  'Zoe Martin',
  'Omar Haddad',
  'Elena Petrova',
  'Sam Rivera',
  'Ines Duarte',
  'Leo Novak',
  'Hana Kim',
  'Felix Wagner',
  'Aisha Bello',
  'Noah Fischer',
  'Clara Moreau',
  'Ravi Patel',
  'Mila Kovac',
  'Diego Torres',
  'Freya Lund',
  'Yusuf Demir',
].map((name) => ({
  name,
  email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@fans.backbeat.local`,
}));

export interface DemoAlbum {
  title: string;
  description: string;
  genre: (typeof demoGenres)[number];
  /** Minor units. */
  price: number;
  isPremium: boolean;
  songs: Array<{
    title: string;
    accessType: 'subscription' | 'purchase-only';
    price: number;
    /** Free to stream: anyone signed in plays it in full; buying it gives the download. */
    freeToStream?: boolean;
  }>;
}

export interface DemoArtist {
  name: string;
  bio: string;
  genre: (typeof demoGenres)[number];
  subscriptionPrice: number;
  /** The demo artist account manages this profile. */
  ownedByDemoArtist?: boolean;
  albums: DemoAlbum[];
}

const sub = (title: string, price = 99) => ({ title, accessType: 'subscription' as const, price });
const buy = (title: string, price = 129) => ({ title, accessType: 'purchase-only' as const, price });
/**
 * Free to stream, as an artist's single on Bandcamp: the closing track of every standard album (8 of 40 songs), so
 * every artist and every genre of the demo has something a new listener plays in full on the first sign-in (the
 * demo listener's Electronic, Lo-Fi and Jazz included). The rest stays as the SPEC's two access types have it, and
 * premium albums stay owners-only.
 */
const free = (title: string, price = 99) => ({ ...sub(title, price), freeToStream: true });

export const demoArtists: DemoArtist[] = [
  {
    name: 'Nova Reyes',
    bio: 'Warm analogue synths and late-night drum machines from a Lisbon rooftop studio.',
    genre: 'Electronic',
    subscriptionPrice: 499,
    ownedByDemoArtist: true,
    albums: [
      {
        title: 'Neon Tides',
        description: 'Eight sunsets compressed into synth arpeggios.',
        genre: 'Electronic',
        price: 799,
        isPremium: false,
        songs: [sub('Harbour Lights'), sub('Tidal Memory'), buy('Low Orbit'), free('Glass Coastline')],
      },
      {
        title: 'Midnight Protocol',
        description: 'The deluxe set: extended mixes for owners only.',
        genre: 'Electronic',
        price: 1299,
        isPremium: true,
        songs: [buy('Protocol One'), buy('Static Bloom'), buy('After Hours Signal'), buy('Dawn Handshake')],
      },
    ],
  },
  {
    name: 'The Velvet Static',
    bio: 'A four-piece that records live to tape, loud and close.',
    genre: 'Rock',
    subscriptionPrice: 399,
    albums: [
      {
        title: 'Paper Amplifiers',
        description: 'Garage rock recorded in one weekend.',
        genre: 'Rock',
        price: 899,
        isPremium: false,
        songs: [
          sub('Feedback Season'),
          buy('Cardboard Crown'),
          sub('Loud Little Town'),
          free('Fuse Box Heart'),
        ],
      },
      {
        title: 'Northbound',
        description: 'Road songs from the last tour.',
        genre: 'Folk',
        price: 699,
        isPremium: false,
        songs: [sub('Mile Marker 9'), buy('Gravel & Grace'), free('Pine Smoke')],
      },
    ],
  },
  {
    name: 'Mira Okafor Quartet',
    bio: 'Modern jazz with a restless rhythm section and a lot of space.',
    genre: 'Jazz',
    subscriptionPrice: 599,
    albums: [
      {
        title: 'Blue Hour Sessions',
        description: 'Recorded live at the Blue Hour club.',
        genre: 'Jazz',
        price: 999,
        isPremium: false,
        songs: [sub('Quiet Corners'), sub('Brass Weather'), buy('Third Set Waltz'), free('Lantern Street')],
      },
      {
        title: 'Collector\u2019s Edition: Late Standards',
        description: 'Premium album of reimagined standards.',
        genre: 'Jazz',
        price: 1499,
        isPremium: true,
        songs: [buy('Autumn, Again'), buy('Smoke Rings Revisited'), buy('Moonlit Detour')],
      },
    ],
  },
  {
    name: 'Kairo Beats',
    bio: 'Dusty samples, soft keys and head-nod drums for studying and dreaming.',
    genre: 'Lo-Fi',
    subscriptionPrice: 299,
    albums: [
      {
        title: 'Rainy Window Tapes',
        description: 'Lo-fi beats for grey afternoons.',
        genre: 'Lo-Fi',
        price: 599,
        isPremium: false,
        songs: [
          sub('Kettle Steam'),
          sub('Notebook Margins'),
          sub('Bus Stop Haze'),
          buy('Cassette Sunday'),
          free('Soft Focus'),
        ],
      },
    ],
  },
  {
    name: 'Sol Marín',
    bio: 'Bright pop hooks sung in two languages.',
    genre: 'Pop',
    subscriptionPrice: 499,
    albums: [
      {
        title: 'Corazón Digital',
        description: 'Pop songs about phones, summers and second chances.',
        genre: 'Pop',
        price: 899,
        isPremium: false,
        songs: [sub('Señal Perdida'), buy('Summer Patch Notes'), sub('Dos Ventanas'), free('Replay')],
      },
      {
        title: 'Acoustic Confessions',
        description: 'Premium stripped-back versions, owners only.',
        genre: 'Pop',
        price: 1199,
        isPremium: true,
        songs: [buy('Replay (Acoustic)'), buy('Paper Planes')],
      },
    ],
  },
  {
    name: 'Aurora Fields',
    bio: 'Slow-moving ambient pieces for long drives and quiet rooms.',
    genre: 'Ambient',
    subscriptionPrice: 399,
    albums: [
      {
        title: 'Drift Atlas',
        description: 'Long ambient journeys.',
        genre: 'Ambient',
        price: 799,
        isPremium: false,
        songs: [sub('Glacier Radio'), sub('Salt Flats'), buy('Aurora Index'), free('Fog Harbour')],
      },
      {
        title: 'Hip-Hop Sketches',
        description: 'Instrumental beats from the ambient side.',
        genre: 'Hip-Hop',
        price: 499,
        isPremium: false,
        songs: [sub('Concrete Garden'), buy('Mixtape Weather'), free('Block Party Echo')],
      },
    ],
  },
];
