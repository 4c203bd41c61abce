# What `cmake --install` puts where, for a desktop Linux system (and the .deb,
# which is made from the same install; see Packaging.cmake).
#
#   bin/soulstudio, bin/soulc
#   share/applications/org.soulstudio.SoulStudio.desktop
#   share/metainfo/org.soulstudio.SoulStudio.metainfo.xml
#   share/icons/hicolor/{scalable,NxN}/apps/org.soulstudio.SoulStudio.{svg,png}
#   share/soulstudio/examples/ava/*.md
#   share/doc/soulstudio/README.md, share/doc/soulstudio/docs/  (named after the
#       package, not the project: the manual in docs/manual/, the rules such as
#       docs/compose-rule.md, the pictures and the man pages' sources)
#
# The programs install themselves, each with its man page: soulstudio
# (share/man/man1/soulstudio.1) in app/soulstudio/, soulc (share/man/man1/soulc.1)
# in app/soulc/.

set(SOULSTUDIO_APP_ID org.soulstudio.SoulStudio)

# Desktop integration only makes sense with the window.
if(SOULSTUDIO_BUILD_GUI)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${SOULSTUDIO_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/linux/${SOULSTUDIO_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

    # Installed under the application id, which the desktop file names as its icon.
    if(EXISTS ${PROJECT_SOURCE_DIR}/resources/icons/soulstudio.svg)
        install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/soulstudio.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
            RENAME ${SOULSTUDIO_APP_ID}.svg)
    endif()
    # PNG renderings of the same icon (scripts/render-icons.sh), for launchers
    # that do not scale SVG.
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor
        FILES_MATCHING PATTERN "*.png")
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
    DESTINATION ${CMAKE_INSTALL_DATADIR}/soulstudio/examples
    FILES_MATCHING PATTERN "*.md")

# The README and the manual keep the repository's layout, so every link and
# picture in them (tests/docs/check-links checks them) resolves in the
# installed copy as it does in the repository.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/soulstudio)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/soulstudio/docs
    FILES_MATCHING PATTERN "*.md" PATTERN "*.png" PATTERN "*.1")
