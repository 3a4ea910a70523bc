"""Anti-aliasing by multisampling, switched on and off while the window stays open.

The window's own framebuffer is made once, without samples (a software renderer would pay
for them even when unused); with multisampling on, the 3D scene is drawn into an offscreen
buffer with several samples per pixel and shown in the window through one textured card.
The menus and the game's text are drawn over it in the window as before.
"""

from __future__ import annotations

import logging

from panda3d.core import FrameBufferProperties, Texture

log = logging.getLogger(__name__)


class Multisampling:
    def __init__(self, manager, texture: Texture, samples: int, unfollow=lambda: None) -> None:
        self.manager, self.texture, self.samples = manager, texture, samples
        self._unfollow = unfollow   # the buffer is drawn only with the window

    @classmethod
    def start(cls, stage, samples: int) -> "Multisampling | None":
        """Draw the scene with `samples` per pixel, or fewer where the driver allows no more;
        None when it offers none."""
        from direct.filter.FilterManager import FilterManager
        while samples > 1:
            manager = FilterManager(stage.win, stage.cam)
            properties = FrameBufferProperties()
            properties.setRgbColor(True)
            properties.setRgbaBits(8, 8, 8, 0)
            properties.setDepthBits(24)
            properties.setMultisamples(samples)
            texture = Texture("scene")
            card = manager.renderSceneInto(colortex=texture, fbprops=properties)
            got = manager.buffers[0].getFbProperties().getMultisamples() if manager.buffers else 0
            if card is not None and got > 1:
                card.setColor(1, 1, 1, 1)   # the manager tints its card until a filter is set on it
                return cls(manager, texture, got, stage.follows(manager.buffers[0]))
            manager.cleanup()
            samples //= 2
        log.info("no multisampling: the graphics driver offers none offscreen")
        return None

    def close(self) -> None:
        self._unfollow()
        self.manager.cleanup()
