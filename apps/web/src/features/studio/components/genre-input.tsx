import { useId } from 'react';
import { TextField } from '../../../components/ui';
import { useGetGenresQuery } from '../../catalog';

/**
 * A free-text genre with the existing genres offered as suggestions; a new name creates a genre. Wire it with
 * `textField(form, 'genre')`.
 */
export function GenreInput({
  value,
  onChange,
  error,
  hint = 'Pick an existing genre or type a new one.',
}: {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error?: string;
  hint?: string;
}) {
  const listId = useId();
  const genres = useGetGenresQuery();
  return (
    <>
      <TextField
        label="Genre"
        name="genre"
        list={listId}
        autoComplete="off"
        maxLength={50}
        value={value}
        onChange={onChange}
        error={error}
        hint={hint}
      />
      <datalist id={listId}>
        {(genres.data ?? []).map((genre) => (
          <option key={genre._id} value={genre.name} />
        ))}
      </datalist>
    </>
  );
}
