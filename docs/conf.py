# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the ioctl registry site.  The site is built from
# build/site-src/, which generator/render_site.py fills with these
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


def _cache_theme_templates(app):
    """Keep the theme's compiled templates between builds, next to the
    doctrees: compiling them costs a third of an incremental build."""
    import os
    from jinja2 import FileSystemBytecodeCache
    env = getattr(getattr(app.builder, "templates", None), "environment", None)
    if env is not None:
        cache = os.path.join(app.doctreedir, "jinja-cache")
        os.makedirs(cache, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(cache)


def setup(app):
    app.connect("builder-inited", _cache_theme_templates)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
