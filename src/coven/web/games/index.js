// Which board draws which game. A game without its own board is drawn by the generic one.
import * as generic from "./generic.js";

const BOARDS = {
  namaste: () => import("./namaste.js"),
  brujas: () => import("./brujas.js"),
  amulets: () => import("./amulets.js"),
  commandments: () => import("./commandments.js"),
};

/** The board module of a game: {render(el, ctx), describe?(event, ctx), scores?(view), help?}. */
export async function boardFor(gameId) {
  const load = BOARDS[gameId];
  if (load) {
    try {
      return await load();
    } catch (err) {
      console.warn(`no board for ${gameId}, using the generic one`, err);
    }
  }
  return generic;
}

export { generic };
