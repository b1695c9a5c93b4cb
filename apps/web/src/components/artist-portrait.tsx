import type { ComponentProps } from 'react';
import { CoverArt } from './ui';

/** An artist's round portrait: their image named by their name, or the artist icon while there is none. */
export function ArtistPortrait({
  image,
  name,
  ...look
}: { image: string | null | undefined; name: string } & Pick<
  ComponentProps<typeof CoverArt>,
  'iconSize' | 'className' | 'eager'
>) {
  return <CoverArt {...look} src={image} alt={name} kind="artist" round />;
}
