"""The villa on screen: Panda3D scene, camera, mouse and the game screen.

- `stage`: the one ShowBase of the process and the Panda3D globals read through it.
- `scene`: the table and every piece (meshes from `meshes`, textures from textures/).
- `shading`, `shadows`: one shader for all pieces; the sun's shadow map and the table's
  light, drawn again only when something moved.
- `camera`: orbit, zoom, pan, glide to the top floor; never under the table or in the villa.
- `view`: scene, shadows and camera kept in step with the physics' poses.
- `controls`, `hud`, `ghost`, `referee`: mouse and keys, words on screen, the landing
  ghost, and the rules engine as the interface asks it.
- `game`: the game screen, frame by frame (`GameScreen`).
- `arrangement`, `arrange`: the columns set up by hand before the blue floor goes on: the
  checks (headless), and the screen where they are dragged across the base plate.
- `xvfb`: a virtual screen for screenshots, benchmarks and tests on machines with no display.
"""
