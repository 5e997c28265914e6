# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the ioctl registry site.  The site is built from
# build/site-src/, which generator/ioctltools/render_site.py fills with these
# hand-written pages and the pages it renders from the registry model.

project = "ioctl registry"
author = "The ioctl-registry contributors"
copyright = ""
html_title = "ioctl registry"
html_short_title = "ioctl registry"

extensions = []
master_doc = "index"
language = "en"
exclude_patterns = []
highlight_language = "none"
# Every reference must resolve (sphinx-build -n); with -W a broken one fails the build.
nitpicky = True

html_theme = "alabaster"
html_theme_options = {
    "page_width": "1240px",
    "sidebar_width": "210px",
    "fixed_sidebar": False,
    "show_powered_by": False,
    "show_relbars": False,
    "description": "Every Linux ioctl magic code and command, on every ABI.",
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_copy_source = False
html_show_sourcelink = False
html_show_copyright = False
html_show_sphinx = False
html_last_updated_fmt = None
html_use_index = False
html_domain_indices = False
html_favicon = "_static/favicon.svg"


# Sphinx 5 still loads jQuery and underscore.js on every page (about 360 KB)
# for extensions written before 5.2; its own scripts, the theme's and the
# site's do not use them.  Dropped: a page transfers what it shows.
_FRAMEWORKS = {"_static/jquery.js", "_static/underscore.js",
               "_static/_sphinx_javascript_frameworks_compat.js"}


def _drop_frameworks(app):
    files = getattr(app.builder, "script_files", None)
    if files is not None:
        files[:] = [f for f in files if getattr(f, "filename", f) not in _FRAMEWORKS]


def setup(app):
    app.connect("builder-inited", _drop_frameworks)
