import { lazy, Suspense, useRef, useState } from 'react';
import { ListPlus } from 'lucide-react';
import { useSelector } from 'react-redux';
import { IconButton } from '../../../components/ui';
import { selectIsSignedIn } from '../../auth';
import { MENU_HEIGHT } from '../playlists.constants';

const Menu = lazy(() =>
  import('./add-to-playlist-menu').then(({ AddToPlaylistMenu }) => ({ default: AddToPlaylistMenu })),
);

/**
 * "Add to playlist" on a song row: the button is drawn at once; the menu (its queries, the New playlist dialog)
 * loads the first time it is pressed, or hovered, and then opens. Every song row carries one, so every list screen
 * would otherwise load the menu's code with its first render.
 */
export function AddToPlaylistMenu({ song }: { song: { _id: string; title: string } }) {
  const signedIn = useSelector(selectIsSignedIn);
  const [opened, setOpened] = useState<{ upwards: boolean } | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  if (!signedIn) return null;

  const placeholder = (onClick?: () => void) => (
    <div ref={wrapper} className="relative">
      <IconButton
        label={`Add ${song.title} to a playlist`}
        size="sm"
        aria-haspopup="menu"
        aria-expanded={false}
        onClick={onClick}
        onPointerEnter={() => void import('./add-to-playlist-menu')}
      >
        <ListPlus size={18} strokeWidth={1.75} aria-hidden="true" />
      </IconButton>
    </div>
  );
  if (!opened) {
    return placeholder(() => {
      const below = window.innerHeight - (wrapper.current?.getBoundingClientRect().bottom ?? 0);
      setOpened({ upwards: below < MENU_HEIGHT });
    });
  }
  return (
    <Suspense fallback={placeholder()}>
      <Menu song={song} opened={opened} />
    </Suspense>
  );
}
