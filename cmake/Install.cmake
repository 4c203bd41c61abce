# What `cmake --install` puts where, for a desktop Linux system (and the .deb,
# which is made from the same install; see Packaging.cmake).
#
#   bin/soulstudio, bin/soulc
#   share/applications/org.soulstudio.SoulStudio.desktop
#   share/metainfo/org.soulstudio.SoulStudio.metainfo.xml
#   share/icons/hicolor/{scalable,NxN}/apps/org.soulstudio.SoulStudio.{svg,png}
#   share/soulstudio/examples/ava/*.md
#   share/doc/soulstudio/{README.md,compose-rule.md}  (named after the package, not the project)
#
# The programs install themselves: soulstudio in app/soulstudio/, soulc and
# its man page (share/man/man1/soulc.1) in app/soulc/.

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

foreach(_doc README.md docs/compose-rule.md)
    if(EXISTS ${PROJECT_SOURCE_DIR}/${_doc})
        install(FILES ${PROJECT_SOURCE_DIR}/${_doc} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/soulstudio)
    endif()
endforeach()
