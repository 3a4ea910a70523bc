"""Settings: graphics quality (Auto, or a preset; the screen says what Auto picks here and why), mouse sensitivity, invert camera, the builder's eye, volume, computer players' speed, language; on Windows, whether invite links open this game.

Each change is reported to `on_change(settings)`, so the game can keep it and apply it live; a
new language is installed at once and this screen redraws in it. `on_close(settings)` when the
player is done.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from villa.presentation import i18n, quality
from villa.presentation.i18n import N_, _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.preferences import AUTOMATIC_QUALITY, COMPUTER_SPEEDS, GRAPHICS_QUALITIES, Settings
from villa.presentation.stage import stage

QUALITY_NAMES = {AUTOMATIC_QUALITY: N_("Auto"), "low": N_("Low"), "medium": N_("Medium"), "high": N_("High")}


def automatic_note() -> str:
    """What Auto picks on this machine, and why: Low where the pictures are drawn without a graphics chip."""
    choice = quality.automatic_choice(stage)
    name = _(QUALITY_NAMES[choice.quality])
    if choice.software:
        return _("Auto picks {quality} here: this computer draws the pictures without a graphics chip.").format(
            quality=name)
    return _("Auto picks {quality} here.").format(quality=name)


class SettingsScreen(Screen):
    """`invite_links`: whether villa-paletti:// links open this game now (None: the desktop is asked otherwise,
    no row for it); `on_invite_links(wanted)` registers or unregisters it and says whether they do now."""

    def __init__(self, parent=None, *, settings: Settings, on_close: Callable[[Settings], None],
                 on_change: Callable[[Settings], None] | None = None, invite_links: bool | None = None,
                 on_invite_links: Callable[[bool], bool] | None = None, **options) -> None:
        self.settings = settings
        self.on_close, self.on_change = on_close, on_change
        self.invite_links, self.on_invite_links = invite_links, on_invite_links
        super().__init__(parent, **options)

    def build(self) -> None:
        root, s = self.root, self.settings
        links = self.invite_links is not None
        lower = 0.07 if links else 0.0       # a row more: the foot of the card further down
        style.panel(root, (-1.12, 1.12, -0.86 - lower, 0.86))
        style.title(root, _("Settings"), pos=(0, 0.68), scale=0.1)
        label_x, widget_x = -0.98, 0.36
        rows = iter((0.5, 0.28, 0.13, -0.02, -0.17, -0.32, -0.47))

        def label(words: str, y: float) -> None:
            style.text(root, words, pos=(label_x, y - 0.014), scale=0.042, align="left", kind="bold")

        y = next(rows)
        label(_("Graphics quality"), y)
        self.widgets["graphics_quality"] = style.Choice(
            root, [(q, _(QUALITY_NAMES[q])) for q in (AUTOMATIC_QUALITY, *GRAPHICS_QUALITIES)], s.graphics_quality,
            lambda v: self._set(graphics_quality=v), pos=(widget_x + 0.02, y), width=1.24, text_scale=0.032)
        self.widgets["automatic_quality"] = style.text(root, automatic_note(), pos=(label_x, y - 0.1), scale=0.03,
                                                       align="left", fg=style.INK_SOFT, kind="serif")
        y = next(rows)
        label(_("Mouse sensitivity"), y)
        self.widgets["sensitivity_value"] = style.text(root, f"× {s.mouse_sensitivity:.2f}", pos=(1.0, y - 0.014),
                                                       scale=0.036, align="right", fg=style.INK_SOFT)
        self.widgets["mouse_sensitivity"] = style.slider(root, s.mouse_sensitivity, 0.25, 3.0,
                                                         self._sensitivity, pos=(widget_x - 0.06, y), width=0.8)
        y = next(rows)
        label(_("Camera"), y)
        self.widgets["invert_camera"] = style.Toggle(root, _("Invert the vertical turn"), s.invert_camera,
                                                     lambda v: self._set(invert_camera=v), pos=(-0.22, y),
                                                     width=0.95)
        y = next(rows)
        label(_("Builder's eye"), y)
        self.widgets["builders_eye"] = style.Toggle(root, _("Show where the floors' load lies (new games)"),
                                                    s.builders_eye, lambda v: self._set(builders_eye=v),
                                                    pos=(-0.22, y), width=0.95)
        y = next(rows)
        label(_("Volume"), y)
        self.widgets["volume_value"] = style.text(root, f"{round(s.volume * 100)} %", pos=(1.0, y - 0.014),
                                                  scale=0.036, align="right", fg=style.INK_SOFT)
        self.widgets["volume"] = style.slider(root, s.volume, 0.0, 1.0, self._volume, pos=(widget_x - 0.06, y),
                                              width=0.8)
        y = next(rows)
        label(_("Computer players"), y)
        self.widgets["computer_speed"] = style.Choice(
            root, [(speed, _("×{speed} speed").format(speed=f"{speed:g}")) for speed in COMPUTER_SPEEDS],
            s.computer_speed, lambda v: self._set(computer_speed=v), pos=(widget_x, y), width=0.9, text_scale=0.032)
        y = next(rows)
        label(_("Language"), y)
        languages = [("system", _("System"))] + [(code, i18n.LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES]
        self.widgets["language"] = style.Choice(root, languages, s.language, self._language,
                                                pos=(widget_x + 0.02, y), width=1.24, text_scale=0.03)
        if links:
            label(_("Invites"), -0.62)
            self.widgets["invite_links"] = style.Toggle(root, _("Open villa-paletti:// links with this game"),
                                                        self.invite_links, self._invite_links, pos=(-0.22, -0.62),
                                                        width=0.95)
        style.text(root, _("Changes are saved at once."), pos=(0, -0.6 - lower * 1.6), scale=0.034,
                   fg=style.INK_SOFT, kind="serif")
        self.widgets["back"] = style.button(root, _("Done"), lambda: self.on_close(self.settings),
                                            pos=(0, -0.74 - lower), width=0.6, kind="primary")

    # --- changes ---
    def _set(self, **changes) -> None:
        self.settings = replace(self.settings, **changes).validated()
        if self.on_change is not None:
            self.on_change(self.settings)

    def _invite_links(self, wanted: bool) -> None:
        self.invite_links = self.on_invite_links(wanted) if self.on_invite_links is not None else wanted
        self.widgets["invite_links"].set(self.invite_links)

    def _sensitivity(self, value: float) -> None:
        value = round(value * 20) / 20
        if abs(value - self.settings.mouse_sensitivity) > 1e-9:
            self._set(mouse_sensitivity=value)
        self.widgets["sensitivity_value"]["text"] = f"× {self.settings.mouse_sensitivity:.2f}"

    def _volume(self, value: float) -> None:
        value = round(value * 20) / 20
        if abs(value - self.settings.volume) > 1e-9:
            self._set(volume=value)
        self.widgets["volume_value"]["text"] = f"{round(self.settings.volume * 100)} %"

    def _language(self, code: str) -> None:
        self._set(language=code)
        i18n.install(code)
        # Redraw in the new language, after this click has been handled.
        if stage.task_mgr is not None:
            stage.task_mgr.doMethodLater(0, lambda task: self.refresh() if self.root is not None else None,
                                         "villa-settings-redraw")
        else:
            self.refresh()
