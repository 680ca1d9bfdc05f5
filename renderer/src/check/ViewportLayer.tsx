/** What the checking half draws inside the 3D scene: the interpenetration overlay and the suggestion's ghost. */
import { SuggestGhost } from '../suggest/Ghost';
import { CheckOverlay } from './CheckOverlay';

export function CheckViewportLayer() {
  return (
    <>
      <CheckOverlay />
      <SuggestGhost />
    </>
  );
}
