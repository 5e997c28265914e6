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
